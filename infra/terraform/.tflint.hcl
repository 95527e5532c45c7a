# tflint with its bundled Terraform language ruleset only: the AWS ruleset
# plugin is downloaded from GitHub, which this build machine cannot reach.
config {
  call_module_type = "local"
}

plugin "terraform" {
  enabled = true
  preset  = "all"
}
