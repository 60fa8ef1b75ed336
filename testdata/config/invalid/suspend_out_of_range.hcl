project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      suspend_timeout = "10s" # ERROR: Suspend timeout out of range # HINT: 60s to 168h
    }
    compute "long" {
      type            = "read_only"
      suspend_timeout = "200h" # ERROR: Suspend timeout out of range
    }
    compute "negative" {
      type            = "read_only"
      suspend_timeout = "-5m" # ERROR: Suspend timeout out of range
    }
    compute "bounds_are_fine" {
      type            = "read_only"
      suspend_timeout = "60s"
    }
    compute "week_is_fine" {
      type            = "read_only"
      suspend_timeout = "168h"
    }
  }
}
