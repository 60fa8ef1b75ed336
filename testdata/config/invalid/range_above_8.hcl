# The service's own rules, whatever the plan: no account_tier here.
project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      min_cu = 0.25
      max_cu = 8 # 7.75 CU wide: fine
    }
    compute "exactly_8" {
      type   = "read_only"
      min_cu = 1
      max_cu = 9
    }
    compute "wider" {
      type   = "read_only"
      min_cu = 0.25
      max_cu = 9 # ERROR: Autoscaling range above 8 CU # HINT: Use min_cu >= 1, or max_cu <= 8
    }
    compute "widest" {
      type   = "read_only"
      min_cu = 0.25
      max_cu = 16 # ERROR: Autoscaling range above 8 CU # HINT: spans 15.75
    }
  }
}
