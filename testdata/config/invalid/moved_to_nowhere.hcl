project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
    }
  }
}

moved {
  from = "shop.dev.reporting"
  to   = "shop.main.reporting" # ERROR: Move to an undeclared compute
}

moved {
  from = "shop.dev.primary"
  to   = "shop.main.primay" # ERROR: Move to an undeclared compute # HINT: Did you mean "shop.main.primary"?
}
