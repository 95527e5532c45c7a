# PostgreSQL for one environment: Amazon RDS for PostgreSQL 16, Multi-AZ in
# production, encrypted, in the private subnets, reachable only from the
# security groups given in allowed_security_group_ids.
#
# TimescaleDB is not offered by RDS. The time-series tables are partitioned by
# time (db/migrations) so that a TimescaleDB service (e.g. Timescale Cloud on
# AWS, peered into this VPC) can replace RDS: set create = false there and pass
# its URL to the services instead.
#
# The master user (tierwise_owner, which runs migrations) has its password
# managed by RDS in Secrets Manager (manage_master_user_password). The
# application roles tierwise_app and tierwise_jobs are created by the migrate
# task with the passwords of the secrets module.

resource "aws_db_subnet_group" "this" {
  name       = var.name
  subnet_ids = var.subnet_ids
}

resource "aws_security_group" "this" {
  name        = "${var.name}-postgres"
  description = "PostgreSQL of ${var.name}"
  vpc_id      = var.vpc_id
}

resource "aws_vpc_security_group_ingress_rule" "postgres" {
  for_each = toset(var.allowed_security_group_ids)

  security_group_id            = aws_security_group.this.id
  referenced_security_group_id = each.value
  ip_protocol                  = "tcp"
  from_port                    = 5432
  to_port                      = 5432
  description                  = "PostgreSQL from ${each.value}"
}

resource "aws_db_parameter_group" "this" {
  name   = var.name
  family = "postgres16"

  # Log slow statements (milliseconds) and lock waits for the rollup upserts.
  parameter {
    name  = "log_min_duration_statement"
    value = "500"
  }

  parameter {
    name  = "log_lock_waits"
    value = "1"
  }
}

resource "aws_db_instance" "this" {
  identifier     = var.name
  engine         = "postgres"
  engine_version = var.engine_version
  instance_class = var.instance_class

  allocated_storage     = var.allocated_storage_gib
  max_allocated_storage = var.max_allocated_storage_gib
  storage_type          = "gp3"
  storage_encrypted     = true

  db_name                     = "tierwise"
  username                    = "tierwise_owner"
  manage_master_user_password = true

  multi_az               = var.multi_az
  db_subnet_group_name   = aws_db_subnet_group.this.name
  vpc_security_group_ids = [aws_security_group.this.id]
  parameter_group_name   = aws_db_parameter_group.this.name
  publicly_accessible    = false

  backup_retention_period      = var.backup_retention_days
  deletion_protection          = var.deletion_protection
  skip_final_snapshot          = !var.deletion_protection
  final_snapshot_identifier    = var.deletion_protection ? "${var.name}-final" : null
  performance_insights_enabled = true
  auto_minor_version_upgrade   = true
}
