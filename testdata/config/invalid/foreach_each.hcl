locals {
  zone = each.key # ERROR: Reference to each outside for_each
}

project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      name = "p-${each.key}" # ERROR: Reference to each outside for_each # HINT: Add for_each
    }
    compute "reports" {
      for_each = { eu = 1 }
      type     = "read_only"
      name     = each.name # ERROR: Invalid reference # HINT: each.key
      size     = each.value
    }
    compute "unnamed" {
      for_each = toset(["a", "b"]) # ERROR: Missing compute name # HINT: name = "unnamed-${each.key}"
      type     = "read_only"
    }
  }

  branch "pr" {
    for_each = toset(["pr-1", "pr-2"]) # ERROR: Missing branch name # HINT: name = each.key
  }
}

moved {
  from = each.key # ERROR: Reference to each outside for_each
  to   = shop.main.primary
}

project "counted" {
  id    = "hidden-river-50598307"
  count = 2 # ERROR: Unsupported argument # HINT: neonform has for_each, not count
}
