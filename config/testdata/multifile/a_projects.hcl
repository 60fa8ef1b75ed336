# Projects first: the variables and locals they use are declared in later files.
project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      min_cu  = var.min_cu
      max_cu  = local.max_cu
      suspend = "5m"
    }
    compute "reports" {
      type   = "read_only"
      size   = var.missing_cu
      name   = "reports-${local.suffix}"
    }
  }
}

project "store" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      size = 0.3
    }
  }
}
