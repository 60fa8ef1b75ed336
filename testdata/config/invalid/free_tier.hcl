neonform {
  account_tier = "free"
}

project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      size = 3 # ERROR: Size above the Free plan's limit # HINT: ("launch" or "scale")
    }
    compute "replica" {
      type   = "read_only"
      min_cu = 0.25
      max_cu = 4 # ERROR: Size above the Free plan's limit
    }
    compute "two_is_fine" {
      type   = "read_only"
      min_cu = 0.25
      max_cu = 2
    }
    compute "five_minutes_is_fine" {
      type            = "read_only"
      suspend_timeout = "5m"
    }
    compute "sleeps_sooner" {
      type            = "read_only"
      suspend_timeout = "60s" # ERROR: Suspend timeout on the Free plan # HINT: cannot be changed
    }
    compute "always_on" {
      type            = "read_only"
      suspend_timeout = "never" # ERROR: Suspend timeout on the Free plan
    }
  }
}
