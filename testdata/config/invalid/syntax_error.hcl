project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {
      size = # ERROR: Invalid expression
    }
  }
}
