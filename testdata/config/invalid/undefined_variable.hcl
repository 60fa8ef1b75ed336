variable "max_cu" {
  type    = number
  default = 4
}

project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      min_cu = 1
      max_cu = var.maxcu # ERROR: Undefined variable # HINT: Did you mean var.max_cu?
    }
    compute "replica" {
      type = "read_only"
      name = var["label"] # ERROR: Undefined variable
    }
  }
}
