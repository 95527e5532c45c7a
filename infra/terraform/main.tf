# One complete Tierwise environment: network, PostgreSQL, Kafka, the Flink
# jobs, the Node services behind the load balancer, e-mail and secrets.
# The sizes of each environment are in environments/<name>.tfvars.

locals {
  name   = "tierwise-${var.environment}"
  images = { for service in ["ingest", "api", "notifier", "web", "migrate"] : service => "${var.image_repository}/${service}:${var.image_tag}" }

  pg_host       = module.database.address
  pg_app_url    = "postgres://tierwise_app@${local.pg_host}:5432/tierwise?sslmode=verify-full"
  pg_jobs_url   = "postgres://tierwise_jobs@${local.pg_host}:5432/tierwise?sslmode=verify-full"
  pg_owner_url  = "postgres://tierwise_owner@${local.pg_host}:5432/tierwise?sslmode=verify-full"
  kafka_brokers = module.kafka.bootstrap_brokers_sasl_scram
  secrets       = module.secrets.secret_arns

  # OpenTelemetry of Tierwise itself (traces and metrics over OTLP/HTTP), when a collector is given.
  otel_environment = var.otlp_endpoint == "" ? {} : { OTEL_EXPORTER_OTLP_ENDPOINT = var.otlp_endpoint }

  # Settings every Node service reads (services/common/src/config/env.ts; all of them:
  # docs/deployment.md). MSK takes SASL/SCRAM-SHA-512 over TLS only.
  common_environment = merge(local.otel_environment, {
    NODE_ENV                         = "production"
    TIERWISE_KAFKA_BROKERS           = local.kafka_brokers
    TIERWISE_KAFKA_SECURITY_PROTOCOL = "SASL_SSL"
    TIERWISE_KAFKA_SASL_MECHANISM    = "SCRAM-SHA-512"
    TIERWISE_WEB_URL                 = module.services.urls.web
    TIERWISE_API_URL                 = module.services.urls.api
  })
  kafka_secrets = {
    TIERWISE_KAFKA_SASL_USERNAME = "${module.kafka.scram_secret_arn}:username::"
    TIERWISE_KAFKA_SASL_PASSWORD = "${module.kafka.scram_secret_arn}:password::"
  }
}

module "network" {
  source = "./modules/network"

  name               = local.name
  cidr_block         = var.vpc_cidr_block
  az_count           = var.az_count
  single_nat_gateway = var.single_nat_gateway
}

module "secrets" {
  source = "./modules/secrets"

  name                    = local.name
  recovery_window_in_days = var.production ? 30 : 0
}

module "database" {
  source = "./modules/database"

  name                       = local.name
  vpc_id                     = module.network.vpc_id
  subnet_ids                 = module.network.private_subnet_ids
  allowed_security_group_ids = [module.network.services_security_group_id, module.network.flink_security_group_id]
  instance_class             = var.database_instance_class
  multi_az                   = var.production
  deletion_protection        = var.production
}

module "kafka" {
  source = "./modules/kafka"

  name                       = local.name
  vpc_id                     = module.network.vpc_id
  subnet_ids                 = module.network.private_subnet_ids
  allowed_security_group_ids = [module.network.services_security_group_id, module.network.flink_security_group_id]
  broker_count               = var.kafka_broker_count
  broker_instance_type       = var.kafka_broker_instance_type
}

module "email" {
  source = "./modules/email"

  name            = local.name
  domain_name     = var.mail_domain_name
  route53_zone_id = var.route53_zone_id
}

module "flink" {
  source = "./modules/flink"

  name                = local.name
  subnet_ids          = module.network.private_subnet_ids
  security_group_id   = module.network.flink_security_group_id
  jar_path            = var.stream_jobs_jar_path
  runtime_environment = var.flink_runtime_environment
  parallelism         = var.flink_parallelism
  # The jobs' settings (stream-jobs JobSettings; docs/deployment.md); secrets by ARN, read by the
  # job from Secrets Manager with its role.
  job_properties = merge(local.otel_environment, {
    TIERWISE_KAFKA_BROKERS           = local.kafka_brokers
    TIERWISE_KAFKA_SECURITY_PROTOCOL = "SASL_SSL"
    TIERWISE_KAFKA_SASL_MECHANISM    = "SCRAM-SHA-512"
    TIERWISE_KAFKA_SASL_SECRET_ARN   = module.kafka.scram_secret_arn
    TIERWISE_JDBC_URL                = "jdbc:postgresql://${local.pg_host}:5432/tierwise?user=tierwise_jobs&sslmode=verify-full"
    PGPASSWORD_SECRET_ARN            = local.secrets["pg-jobs-password"]
  })
  secret_arns  = [local.secrets["pg-jobs-password"], module.kafka.scram_secret_arn]
  kms_key_arns = [module.kafka.scram_kms_key_arn]
}

module "services" {
  source = "./modules/services"

  name                       = local.name
  vpc_id                     = module.network.vpc_id
  public_subnet_ids          = module.network.public_subnet_ids
  private_subnet_ids         = module.network.private_subnet_ids
  alb_security_group_id      = module.network.alb_security_group_id
  services_security_group_id = module.network.services_security_group_id
  domain_name                = var.domain_name
  route53_zone_id            = var.route53_zone_id
  kms_key_arns               = [module.kafka.scram_kms_key_arn]

  services = {
    ingest = {
      image         = local.images.ingest
      cpu           = 1024
      memory_mib    = 2048
      desired_count = var.service_desired_count
      port          = 4318
      environment   = merge(local.common_environment, { TIERWISE_INGEST_PORT = "4318", TIERWISE_PG_APP_URL = local.pg_app_url })
      secrets       = merge(local.kafka_secrets, { PGPASSWORD = local.secrets["pg-app-password"] })
    }
    api = {
      image         = local.images.api
      cpu           = 1024
      memory_mib    = 2048
      desired_count = var.service_desired_count
      port          = 8080
      environment   = merge(local.common_environment, { TIERWISE_API_PORT = "8080", TIERWISE_PG_APP_URL = local.pg_app_url })
      secrets = {
        PGPASSWORD                   = local.secrets["pg-app-password"]
        TIERWISE_SESSION_SECRET      = local.secrets["session-secret"]
        TIERWISE_UNSUBSCRIBE_SECRET  = local.secrets["unsubscribe-secret"]
        TIERWISE_CHANNEL_SECRETS_KEY = local.secrets["channel-secrets-key"]
      }
    }
    notifier = {
      image         = local.images.notifier
      cpu           = 512
      memory_mib    = 1024
      desired_count = 1
      port          = 8090
      environment   = merge(local.common_environment, { TIERWISE_NOTIFIER_PORT = "8090", TIERWISE_PG_JOBS_URL = local.pg_jobs_url, TIERWISE_MAIL_FROM = module.email.from_address })
      secrets = {
        PGPASSWORD                   = local.secrets["pg-jobs-password"]
        TIERWISE_SMTP_URL            = module.email.smtp_url_secret_arn
        TIERWISE_UNSUBSCRIBE_SECRET  = local.secrets["unsubscribe-secret"]
        TIERWISE_CHANNEL_SECRETS_KEY = local.secrets["channel-secrets-key"]
      }
    }
    web = {
      image         = local.images.web
      cpu           = 512
      memory_mib    = 1024
      desired_count = var.service_desired_count
      port          = 3000
      health_path   = "/"
      environment   = merge(local.common_environment, { PORT = "3000", HOSTNAME = "0.0.0.0" })
      secrets       = { TIERWISE_SESSION_SECRET = local.secrets["session-secret"] }
    }
  }

  migrate = {
    image       = local.images.migrate
    cpu         = 256
    memory_mib  = 512
    environment = { TIERWISE_PG_OWNER_URL = local.pg_owner_url }
    secrets = {
      TIERWISE_PG_OWNER_PASSWORD = "${module.database.master_user_secret_arn}:password::"
      TIERWISE_PG_APP_PASSWORD   = local.secrets["pg-app-password"]
      TIERWISE_PG_JOBS_PASSWORD  = local.secrets["pg-jobs-password"]
    }
  }
}
