project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
    }
    compute "reporting" {
      type = "read_only"
    }
  }
}

moved {
  from = "shop.main.reporting" # ERROR: Move from a declared compute # HINT: is still declared
  to   = "shop.main.primary"
}
