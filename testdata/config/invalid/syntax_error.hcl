project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {
      size = # ERROR: Invalid expression # HINT: Nothing follows the equals sign
    }
  }
}
