project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
    }
  }
}

moved {
  from = "shop.primary" # ERROR: Move to another kind of address
  to   = "shop.main.primary"
}

moved {
  from = "shop.dev.primary"
  to   = "Shop.main.primary" # ERROR: Invalid address
}

moved { # ERROR: Missing moved address
  from = "shop.dev.primary"
}

moved {
  from = "shop.main.primary"
  to   = "shop.main.primary" # ERROR: Move to the same address
}
