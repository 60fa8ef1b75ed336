project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      suspend_timeout = "5 minutes" # ERROR: Invalid suspend timeout
    }
    compute "bare_number" {
      type            = "read_only"
      suspend_timeout = 300 # ERROR: Invalid suspend timeout # HINT: write "300s"
    }
    compute "fraction" {
      type            = "read_only"
      suspend_timeout = "90.5s" # ERROR: Invalid suspend timeout # HINT: Write "1m31s"
    }
    compute "always" {
      type            = "read_only"
      suspend_timeout = "Never" # ERROR: Invalid suspend timeout
    }
  }
}
