variable "cu" {
  type    = integer # ERROR: Invalid type specification # HINT: Did you mean number?
  default = 1
}

variable "zones" {
  type = set(string) # ERROR: Unsupported variable type
}

variable "shape" {
  type = object({ min = number }) # ERROR: Unsupported variable type
}
