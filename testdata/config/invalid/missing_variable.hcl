# VARS: given=2
variable "replica_cu" { # ERROR: Missing variable value # HINT: NEONFORM_VAR_replica_cu
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
