neonform {
  account_tier = "scale"
}

project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      min_cu          = 8
      max_cu          = 16
      suspend_timeout = "60s"
    }
    compute "largest" {
      type            = "read_only"
      size            = 56
      suspend_timeout = "never"
    }
    compute "large_suspends" {
      type            = "read_only"
      size            = 56
      suspend_timeout = "168h" # ERROR: Scale to zero above 16 CU
    }
  }
}
