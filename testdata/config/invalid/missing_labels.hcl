project { # ERROR: Missing project label
  id = "dark-sun-46453911"
}

project "shop" {
  id = "hidden-river-50598307"

  branch "main" {
    compute "primary" "extra" { # ERROR: Extra label on compute block
    }
  }
}

locals "named" { # ERROR: Extra label on locals block
  x = 1
}
