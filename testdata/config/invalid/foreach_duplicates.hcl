project "tenant" {
  for_each = { acme = "dark-sun-46453911", globex = "dark-sun-46453911" }
  id       = each.value # ERROR: Duplicate project id # HINT: tenant["acme"] (foreach_duplicates.hcl:3)
}

project "shop" {
  id = "hidden-river-50598307"

  branch "main" {
    compute "reports" {
      for_each = toset(["eu", "us"])
      type     = "read_only"
      name     = "reports" # ERROR: Duplicate compute name # HINT: shop.main.reports["eu"] (foreach_duplicates.hcl:13) and shop.main.reports["us"]
    }
    compute "writers" {
      for_each = toset(["a", "b"])
      type     = "read_write" # ERROR: More than one read_write compute # HINT: shop.main.writers["a"]
      name     = "writer-${each.key}"
    }
  }

  branch "preview" {
    for_each = { one = "same", two = "same" }
    name     = each.value # ERROR: Branch declared twice # HINT: shop.preview["one"] (foreach_duplicates.hcl:24) and shop.preview["two"] # HINT: depend on each.key
  }

  branch "preview" { # ERROR: Duplicate branch label
    for_each = toset(["three"])
    name     = each.key
  }
}
