variable "cu" {
  type    = number
  default = "many" # ERROR: Invalid default value for variable
}

variable "max" {
  type    = number
  default = var.cu # ERROR: Variables not allowed
}

variable "flag" {
  sensitive = "maybe" # ERROR: Incorrect attribute value type
  default   = true
}
