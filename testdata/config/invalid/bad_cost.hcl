neonform {
  account_tier      = "scale"
  price_per_cu_hour = 0 # ERROR: Invalid price per CU-hour # HINT: Remove it to use the plan's price
  budget {
    monthly_usd_max = -5 # ERROR: Invalid budget # HINT: above 0
  }
  budget { # ERROR: Duplicate budget block # HINT: keep one, with the lower monthly_usd_max
    monthly_usd_max = 10
  }
}

project "shop" {
  id = "dark-sun-46453911"

  budget { # ERROR: Missing monthly_usd_max # HINT: add monthly_usd_max = 500
  }

  branch "main" {
    compute "primary" {
      min_cu                = 0.25
      max_cu                = 2
      expected_active_hours = 731 # ERROR: Invalid expected active hours # HINT: from 0 to 730
    }
    compute "reports" {
      type                  = "read_only"
      size                  = 24
      expected_active_hours = 10 # ERROR: Usage hint on a compute that never suspends # HINT: larger than 16 CU
    }
    expected_active_hours = 10 # ERROR: Unsupported argument # HINT: compute
  }
}

project "books" {
  id = "cold-moon-12345678"

  budget {
    monthly_usd_max = null # ERROR: Missing monthly_usd_max # HINT: which would leave the budget unchecked
  }
}
