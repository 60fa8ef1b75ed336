# Computes above 16 CU never scale to zero, whatever the plan.
project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      size            = 16
      suspend_timeout = "5m"
    }
    compute "large_never" {
      type            = "read_only"
      size            = 18
      suspend_timeout = "never"
    }
    compute "large_default" {
      type = "read_only"
      size = 18
    }
    compute "large_suspends" {
      type            = "read_only"
      size            = 18
      suspend_timeout = "5m" # ERROR: Scale to zero above 16 CU # HINT: or write "never"
    }
  }
}
