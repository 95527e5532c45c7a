# The Node services of one environment on ECS Fargate behind one Application
# Load Balancer with TLS:
#
#   https://<domain>          → web (Next.js portal)
#   https://api.<domain>      → api (portal and public REST API, /openapi.json)
#   https://ingest.<domain>   → ingest (agents' OTLP/HTTP and ReferenceBatch posts)
#   notifier                  → no listener; reaches SMTP (SES) and Slack
#   migrate                   → task definition only, run once per deploy
#                               (db/migrations as tierwise_owner)
#
# Every container gets TIERWISE_BIND_ADDRESS=0.0.0.0 (the local stack binds
# 127.0.0.1) and its secrets from Secrets Manager, never from the task
# definition's plain environment.

data "aws_region" "current" {}

locals {
  hosts = {
    web    = var.domain_name
    api    = "api.${var.domain_name}"
    ingest = "ingest.${var.domain_name}"
  }
  public_services = { for name, service in var.services : name => service if contains(keys(local.hosts), name) }
}

resource "aws_ecs_cluster" "this" {
  name = var.name

  setting {
    name  = "containerInsights"
    value = "enhanced"
  }
}

resource "aws_cloudwatch_log_group" "this" {
  for_each = merge(var.services, { migrate = var.migrate })

  name              = "/tierwise/${var.name}/${each.key}"
  retention_in_days = var.log_retention_days
}

data "aws_iam_policy_document" "assume_ecs_tasks" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["ecs-tasks.amazonaws.com"]
    }
  }
}

# Execution role: pulls images, writes logs, resolves the containers' secrets.
resource "aws_iam_role" "execution" {
  name               = "${var.name}-ecs-execution"
  assume_role_policy = data.aws_iam_policy_document.assume_ecs_tasks.json
}

resource "aws_iam_role_policy_attachment" "execution" {
  role       = aws_iam_role.execution.name
  policy_arn = "arn:aws:iam::aws:policy/service-role/AmazonECSTaskExecutionRolePolicy"
}

data "aws_iam_policy_document" "read_secrets" {
  statement {
    actions = ["secretsmanager:GetSecretValue"]
    # An ARN may name one JSON key (ARN:key::); the policy names the secret itself.
    resources = distinct(flatten([for service in merge(var.services, { migrate = var.migrate }) : [for arn in values(service.secrets) : join(":", slice(split(":", arn), 0, 7))]]))
  }

  dynamic "statement" {
    for_each = length(var.kms_key_arns) > 0 ? [1] : []
    content {
      actions   = ["kms:Decrypt"]
      resources = var.kms_key_arns
    }
  }
}

resource "aws_iam_role_policy" "execution_secrets" {
  name   = "read-secrets"
  role   = aws_iam_role.execution.id
  policy = data.aws_iam_policy_document.read_secrets.json
}

# Task role: what the application itself may call (SES for the notifier).
resource "aws_iam_role" "task" {
  name               = "${var.name}-ecs-task"
  assume_role_policy = data.aws_iam_policy_document.assume_ecs_tasks.json
}

resource "aws_ecs_task_definition" "this" {
  for_each = merge(var.services, { migrate = var.migrate })

  family                   = "${var.name}-${each.key}"
  requires_compatibilities = ["FARGATE"]
  network_mode             = "awsvpc"
  cpu                      = each.value.cpu
  memory                   = each.value.memory_mib
  execution_role_arn       = aws_iam_role.execution.arn
  task_role_arn            = aws_iam_role.task.arn

  runtime_platform {
    operating_system_family = "LINUX"
    cpu_architecture        = "ARM64"
  }

  container_definitions = jsonencode([{
    name        = each.key
    image       = each.value.image
    essential   = true
    command     = each.value.command
    environment = [for key, value in merge(each.value.environment, { TIERWISE_BIND_ADDRESS = "0.0.0.0" }) : { name = key, value = value }]
    secrets     = [for key, arn in each.value.secrets : { name = key, valueFrom = arn }]
    portMappings = each.value.port == null ? [] : [{
      containerPort = each.value.port
      protocol      = "tcp"
    }]
    logConfiguration = {
      logDriver = "awslogs"
      options = {
        awslogs-group         = aws_cloudwatch_log_group.this[each.key].name
        awslogs-region        = data.aws_region.current.region
        awslogs-stream-prefix = each.key
      }
    }
  }])
}

resource "aws_ecs_service" "this" {
  for_each = var.services

  name            = each.key
  cluster         = aws_ecs_cluster.this.id
  task_definition = aws_ecs_task_definition.this[each.key].arn
  desired_count   = each.value.desired_count
  launch_type     = "FARGATE"

  network_configuration {
    subnets          = var.private_subnet_ids
    security_groups  = [var.services_security_group_id]
    assign_public_ip = false
  }

  deployment_circuit_breaker {
    enable   = true
    rollback = true
  }

  dynamic "load_balancer" {
    for_each = contains(keys(local.hosts), each.key) ? [1] : []
    content {
      target_group_arn = aws_lb_target_group.this[each.key].arn
      container_name   = each.key
      container_port   = each.value.port
    }
  }
}
