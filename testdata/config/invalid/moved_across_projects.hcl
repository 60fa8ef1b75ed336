project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
    }
  }
}

project "other" {
  id = "hidden-river-50598307"
}

moved {
  from = "other.main.primary"
  to   = "shop.main.primary" # ERROR: Move across projects
}
