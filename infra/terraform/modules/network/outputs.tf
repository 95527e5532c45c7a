output "vpc_id" {
  description = "ID of the VPC."
  value       = aws_vpc.this.id
}

output "vpc_cidr_block" {
  description = "CIDR of the VPC (for security group rules)."
  value       = aws_vpc.this.cidr_block
}

output "public_subnet_ids" {
  description = "Public subnets, one per AZ (ALB, NAT gateways)."
  value       = aws_subnet.public[*].id
}

output "private_subnet_ids" {
  description = "Private subnets, one per AZ (ECS tasks, RDS, MSK, Managed Flink)."
  value       = aws_subnet.private[*].id
}

output "alb_security_group_id" {
  description = "Security group of the public load balancer."
  value       = aws_security_group.alb.id
}

output "services_security_group_id" {
  description = "Security group of the ECS tasks."
  value       = aws_security_group.services.id
}

output "flink_security_group_id" {
  description = "Security group of the Managed Flink application."
  value       = aws_security_group.flink.id
}
