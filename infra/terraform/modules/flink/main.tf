# The stream jobs (stream-jobs/target/tierwise-stream-jobs.jar, one shaded jar)
# on Amazon Managed Service for Apache Flink, in the private subnets, with
# checkpoints and snapshots managed by the service.
#
# The jar is built against Flink 2.3: runtime_environment must name a Flink 2.x
# runtime of the service (see infra/terraform/README.md, "Flink runtime").
# Settings reach the job as the runtime property group "tierwise" (the same
# TIERWISE_* names as the local stack's environment).

data "aws_caller_identity" "current" {}

resource "aws_s3_bucket" "code" {
  bucket_prefix = "${var.name}-flink-code-"
}

resource "aws_s3_bucket_public_access_block" "code" {
  bucket                  = aws_s3_bucket.code.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_versioning" "code" {
  bucket = aws_s3_bucket.code.id

  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_object" "jar" {
  bucket = aws_s3_bucket.code.id
  key    = "tierwise-stream-jobs-${filesha256(var.jar_path)}.jar"
  source = var.jar_path
}

resource "aws_cloudwatch_log_group" "this" {
  name              = "/tierwise/${var.name}/flink"
  retention_in_days = var.log_retention_days
}

resource "aws_cloudwatch_log_stream" "this" {
  name           = "jobs"
  log_group_name = aws_cloudwatch_log_group.this.name
}

data "aws_iam_policy_document" "assume" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["kinesisanalytics.amazonaws.com"]
    }
    condition {
      test     = "StringEquals"
      variable = "aws:SourceAccount"
      values   = [data.aws_caller_identity.current.account_id]
    }
  }
}

resource "aws_iam_role" "this" {
  name               = "${var.name}-flink"
  assume_role_policy = data.aws_iam_policy_document.assume.json
}

data "aws_iam_policy_document" "permissions" {
  statement {
    sid       = "ReadJar"
    actions   = ["s3:GetObject", "s3:GetObjectVersion"]
    resources = ["${aws_s3_bucket.code.arn}/*"]
  }

  statement {
    sid       = "WriteLogs"
    actions   = ["logs:PutLogEvents", "logs:DescribeLogStreams", "logs:DescribeLogGroups"]
    resources = ["${aws_cloudwatch_log_group.this.arn}:*"]
  }

  statement {
    sid = "VpcNetworkInterfaces"
    actions = [
      "ec2:CreateNetworkInterface", "ec2:CreateNetworkInterfacePermission", "ec2:DeleteNetworkInterface",
      "ec2:DescribeNetworkInterfaces", "ec2:DescribeVpcs", "ec2:DescribeSubnets",
      "ec2:DescribeSecurityGroups", "ec2:DescribeDhcpOptions",
    ]
    resources = ["*"]
  }

  statement {
    sid       = "ReadSecrets"
    actions   = ["secretsmanager:GetSecretValue"]
    resources = var.secret_arns
  }

  statement {
    sid       = "DecryptSecrets"
    actions   = ["kms:Decrypt"]
    resources = var.kms_key_arns
  }
}

resource "aws_iam_role_policy" "this" {
  name   = "flink"
  role   = aws_iam_role.this.id
  policy = data.aws_iam_policy_document.permissions.json
}

resource "aws_kinesisanalyticsv2_application" "this" {
  name                   = var.name
  runtime_environment    = var.runtime_environment
  service_execution_role = aws_iam_role.this.arn
  start_application      = true

  application_configuration {
    application_code_configuration {
      code_content_type = "ZIPFILE"

      code_content {
        s3_content_location {
          bucket_arn     = aws_s3_bucket.code.arn
          file_key       = aws_s3_object.jar.key
          object_version = aws_s3_object.jar.version_id
        }
      }
    }

    environment_properties {
      property_group {
        property_group_id = "tierwise"
        property_map      = var.job_properties
      }
    }

    flink_application_configuration {
      checkpoint_configuration {
        configuration_type = "DEFAULT"
      }

      monitoring_configuration {
        configuration_type = "CUSTOM"
        log_level          = "INFO"
        metrics_level      = "OPERATOR"
      }

      parallelism_configuration {
        configuration_type   = "CUSTOM"
        auto_scaling_enabled = var.auto_scaling
        parallelism          = var.parallelism
        parallelism_per_kpu  = 1
      }
    }

    application_snapshot_configuration {
      snapshots_enabled = true
    }

    vpc_configuration {
      subnet_ids         = var.subnet_ids
      security_group_ids = [var.security_group_id]
    }
  }

  cloudwatch_logging_options {
    log_stream_arn = aws_cloudwatch_log_stream.this.arn
  }
}
