# The root module: one Tierwise environment. Each environment is a tfvars file
# and a backend file under environments/:
#   terraform init -backend-config=environments/production.s3.tfbackend -backend-config="bucket=<state bucket>"
#   terraform apply -var-file=environments/production.tfvars

terraform {
  required_version = ">= 1.10.0"

  # State in S3 with native lock files (use_lockfile needs Terraform >= 1.10).
  backend "s3" {
    encrypt      = true
    use_lockfile = true
  }

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 6.0"
    }
  }
}

provider "aws" {
  region = var.region

  default_tags {
    tags = {
      Project     = "tierwise"
      Environment = var.environment
      ManagedBy   = "terraform"
    }
  }
}
