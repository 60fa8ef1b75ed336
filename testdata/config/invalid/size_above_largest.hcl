project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      size = 57 # ERROR: Unsupported compute size # HINT: largest is 56
    }
    compute "replica" {
      type = "read_only"
      size = 58 # ERROR: Unsupported compute size
    }
  }
}
