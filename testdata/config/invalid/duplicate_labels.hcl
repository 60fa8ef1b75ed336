project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
    }
    compute "primary" { # ERROR: Duplicate compute label # HINT: duplicate_labels.hcl:5
      type = "read_only"
    }
  }
  branch "main" { # ERROR: Duplicate branch label
  }
}

project "shop" { # ERROR: Duplicate project label
  id = "hidden-river-50598307"
}
