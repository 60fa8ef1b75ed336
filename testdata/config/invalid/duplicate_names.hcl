variable "cu" {
  default = 1
}

variable "cu" { # ERROR: Duplicate variable
  default = 2
}

variable "1cu" { # ERROR: Invalid variable name
  default = 3
}

locals {
  tier = "small"
}

locals {
  tier = "large" # ERROR: Duplicate local value
  nested { # ERROR: Unsupported block type
  }
}
