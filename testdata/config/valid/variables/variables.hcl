variable "only_default" {
  type    = number
  default = 1
}

variable "from_env" {
  type        = number
  default     = 1
  description = "Set by NEONFORM_VAR_from_env, which beats the default."
}

variable "from_file" {
  type    = string
  default = "default"
}

variable "from_cli" {
  type    = number
  default = 1
}

variable "zones" {
  type = list(string)
}

variable "settings" {
  type = map(string)
}

variable "secret" {
  type      = string
  default   = "s3cret"
  sensitive = true
}

variable "untyped" {
}
