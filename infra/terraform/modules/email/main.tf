# Amazon SES for the notifier's e-mail: a verified domain identity with DKIM
# and a custom MAIL FROM domain (SPF alignment), and SMTP credentials for
# nodemailer (TIERWISE_SMTP_URL) kept in Secrets Manager.

data "aws_region" "current" {}

resource "aws_sesv2_email_identity" "this" {
  email_identity = var.domain_name

  dkim_signing_attributes {
    next_signing_key_length = "RSA_2048_BIT"
  }
}

resource "aws_route53_record" "dkim" {
  count = 3

  zone_id = var.route53_zone_id
  name    = "${aws_sesv2_email_identity.this.dkim_signing_attributes[0].tokens[count.index]}._domainkey.${var.domain_name}"
  type    = "CNAME"
  ttl     = 1800
  records = ["${aws_sesv2_email_identity.this.dkim_signing_attributes[0].tokens[count.index]}.dkim.amazonses.com"]
}

resource "aws_sesv2_email_identity_mail_from_attributes" "this" {
  email_identity         = aws_sesv2_email_identity.this.email_identity
  mail_from_domain       = "mail.${var.domain_name}"
  behavior_on_mx_failure = "USE_DEFAULT_VALUE"
}

resource "aws_route53_record" "mail_from_mx" {
  zone_id = var.route53_zone_id
  name    = "mail.${var.domain_name}"
  type    = "MX"
  ttl     = 1800
  records = ["10 feedback-smtp.${data.aws_region.current.region}.amazonses.com"]
}

resource "aws_route53_record" "mail_from_spf" {
  zone_id = var.route53_zone_id
  name    = "mail.${var.domain_name}"
  type    = "TXT"
  ttl     = 1800
  records = ["v=spf1 include:amazonses.com -all"]
}

# SMTP credentials: an IAM user that may only send as this identity. Its SMTP
# password is derived by the provider (ses_smtp_password_v4) and stored as the
# complete TIERWISE_SMTP_URL.
resource "aws_iam_user" "smtp" {
  name = "${var.name}-smtp"
}

data "aws_iam_policy_document" "send" {
  statement {
    actions   = ["ses:SendRawEmail"]
    resources = [aws_sesv2_email_identity.this.arn]
  }
}

resource "aws_iam_user_policy" "smtp" {
  name   = "send-as-${var.domain_name}"
  user   = aws_iam_user.smtp.name
  policy = data.aws_iam_policy_document.send.json
}

resource "aws_iam_access_key" "smtp" {
  user = aws_iam_user.smtp.name
}

resource "aws_secretsmanager_secret" "smtp_url" {
  name        = "${var.name}/smtp-url"
  description = "TIERWISE_SMTP_URL of the notifier (SES SMTP, STARTTLS on 587)."
}

resource "aws_secretsmanager_secret_version" "smtp_url" {
  secret_id     = aws_secretsmanager_secret.smtp_url.id
  secret_string = "smtp://${urlencode(aws_iam_access_key.smtp.id)}:${urlencode(aws_iam_access_key.smtp.ses_smtp_password_v4)}@email-smtp.${data.aws_region.current.region}.amazonaws.com:587"
}
