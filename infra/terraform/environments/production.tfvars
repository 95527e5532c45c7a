# Production: three AZs, a NAT gateway per AZ, Multi-AZ PostgreSQL with
# deletion protection, three tasks per public service.
environment                = "production"
production                 = true
region                     = "eu-west-1"
domain_name                = "app.tierwise.example"
mail_domain_name           = "tierwise.example"
route53_zone_id            = "Z0123456789ABCDEFGHIJ"
image_repository           = "123456789012.dkr.ecr.eu-west-1.amazonaws.com/tierwise"
image_tag                  = "set-by-the-release"
flink_runtime_environment  = "FLINK-2_2"
az_count                   = 3
single_nat_gateway         = false
database_instance_class    = "db.m7g.xlarge"
kafka_broker_count         = 3
kafka_broker_instance_type = "kafka.m7g.large"
service_desired_count      = 3
flink_parallelism          = 4
