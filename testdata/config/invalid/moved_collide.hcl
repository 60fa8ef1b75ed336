project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
    }
    compute "reporting" {
      type = "read_only"
    }
    compute "analytics" {
      type = "read_only"
    }
  }
}

moved {
  from = "shop.dev.reporting"
  to   = "shop.main.reporting"
}

moved {
  from = "shop.dev.reporting" # ERROR: Duplicate move source
  to   = "shop.main.analytics"
}

moved {
  from = "shop.dev.other"
  to   = "shop.main.reporting" # ERROR: Duplicate move target
}
