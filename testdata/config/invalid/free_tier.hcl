neonform {
  account_tier = "free"
}

project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      size = 3 # ERROR: Size above the free plan's limit # HINT: account_tier = "paid"
    }
    compute "replica" {
      type   = "read_only"
      min_cu = 0.25
      max_cu = 4 # ERROR: Size above the free plan's limit
    }
    compute "two_is_fine" {
      type   = "read_only"
      min_cu = 0.25
      max_cu = 2
    }
  }
}
