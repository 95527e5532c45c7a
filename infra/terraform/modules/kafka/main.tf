# Amazon MSK for one environment: the telemetry topics (telemetry.metrics.v1,
# telemetry.refs.v1) between ingest and the Flink jobs.
#
# Clients authenticate with SASL/SCRAM-SHA-512 over TLS (port 9096): both
# @platformatic/kafka (ingest) and the Kafka Java client (Flink) speak it
# without extra plugins. The SCRAM user's secret must be encrypted with a
# customer-managed KMS key and named AmazonMSK_* (an MSK requirement).

resource "aws_security_group" "this" {
  name        = "${var.name}-kafka"
  description = "MSK brokers of ${var.name}"
  vpc_id      = var.vpc_id
}

resource "aws_vpc_security_group_ingress_rule" "scram" {
  for_each = toset(var.allowed_security_group_ids)

  security_group_id            = aws_security_group.this.id
  referenced_security_group_id = each.value
  ip_protocol                  = "tcp"
  from_port                    = 9096
  to_port                      = 9096
  description                  = "Kafka SASL/SCRAM over TLS from ${each.value}"
}

resource "aws_msk_configuration" "this" {
  name           = var.name
  kafka_versions = [var.kafka_version]

  # Topics are created by the deploy (infra/terraform/README.md), never by a
  # client's first write; three replicas, two in sync for an acknowledged write.
  server_properties = <<-PROPERTIES
    auto.create.topics.enable=false
    default.replication.factor=3
    min.insync.replicas=2
    log.retention.hours=${var.retention_hours}
    message.max.bytes=10485760
  PROPERTIES
}

resource "aws_msk_cluster" "this" {
  cluster_name           = var.name
  kafka_version          = var.kafka_version
  number_of_broker_nodes = var.broker_count

  broker_node_group_info {
    instance_type   = var.broker_instance_type
    client_subnets  = var.subnet_ids
    security_groups = [aws_security_group.this.id]

    storage_info {
      ebs_storage_info {
        volume_size = var.broker_storage_gib
      }
    }
  }

  configuration_info {
    arn      = aws_msk_configuration.this.arn
    revision = aws_msk_configuration.this.latest_revision
  }

  client_authentication {
    sasl {
      scram = true
    }
  }

  encryption_info {
    encryption_in_transit {
      client_broker = "TLS"
      in_cluster    = true
    }
  }
}

resource "aws_kms_key" "scram" {
  description         = "Encrypts the MSK SCRAM credentials of ${var.name}"
  enable_key_rotation = true
}

resource "random_password" "scram" {
  length  = 40
  special = false
}

resource "aws_secretsmanager_secret" "scram" {
  name       = "AmazonMSK_${var.name}_tierwise"
  kms_key_id = aws_kms_key.scram.arn
}

resource "aws_secretsmanager_secret_version" "scram" {
  secret_id     = aws_secretsmanager_secret.scram.id
  secret_string = jsonencode({ username = "tierwise", password = random_password.scram.result })
}

resource "aws_msk_single_scram_secret_association" "this" {
  cluster_arn = aws_msk_cluster.this.arn
  secret_arn  = aws_secretsmanager_secret.scram.arn

  depends_on = [aws_secretsmanager_secret_version.scram]
}
