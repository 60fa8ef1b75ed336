neonform {
  account_tier = "launch"
}

project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      min_cu          = 8
      max_cu          = 16
      suspend_timeout = "never"
    }
    compute "fixed_16" {
      type            = "read_only"
      size            = 16
      suspend_timeout = "5m"
    }
    compute "fixed_18" {
      type = "read_only"
      size = 18 # ERROR: Size above the Launch plan's limit # HINT: needs the Scale plan
    }
    compute "ten_minutes" {
      type            = "read_only"
      suspend_timeout = "10m" # ERROR: Suspend timeout on the Launch plan # HINT: "5m" or "never"
    }
  }
}
