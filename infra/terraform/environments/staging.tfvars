# Staging: two AZs, one NAT gateway, burstable instances, one task per service.
environment                = "staging"
production                 = false
region                     = "eu-west-1"
domain_name                = "staging.tierwise.example"
mail_domain_name           = "staging.tierwise.example"
route53_zone_id            = "Z0123456789ABCDEFGHIJ"
image_repository           = "123456789012.dkr.ecr.eu-west-1.amazonaws.com/tierwise"
image_tag                  = "set-by-the-release"
flink_runtime_environment  = "FLINK-2_2"
az_count                   = 2
single_nat_gateway         = true
database_instance_class    = "db.t4g.medium"
kafka_broker_count         = 2
kafka_broker_instance_type = "kafka.t3.small"
service_desired_count      = 1
flink_parallelism          = 1
