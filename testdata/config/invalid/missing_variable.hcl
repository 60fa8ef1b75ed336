# VARS: given=2
variable "replica_cu" { # ERROR: Missing variable value
  type = number
}

variable "given" {
  type = number
}

project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      size = var.given
    }
    compute "replica" {
      type = "read_only"
      size = var.replica_cu
    }
  }
}
