variable "secret_keys" {
  type      = map(string)
  default   = { a = "x" }
  sensitive = true
}

project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "numbers" {
      for_each = [1, 2] # ERROR: Invalid for_each # HINT: needs strings
      type     = "read_only"
      name     = each.key
    }
    compute "twice" {
      for_each = ["eu", "eu"] # ERROR: Invalid for_each # HINT: toset(...)
      type     = "read_only"
      name     = each.key
    }
    compute "scalar" {
      for_each = "eu" # ERROR: Invalid for_each # HINT: not a string
      type     = "read_only"
      name     = each.key
    }
    compute "nothing" {
      for_each = null # ERROR: Invalid for_each # HINT: for_each is null
      type     = "read_only"
      name     = each.key
    }
    compute "empty_key" {
      for_each = toset(["", "eu"]) # ERROR: Invalid for_each # HINT: empty key
      type     = "read_only"
      name     = each.key
    }
    compute "secret" {
      for_each = var.secret_keys # ERROR: Invalid for_each # HINT: sensitive value
      type     = "read_only"
      name     = each.key
    }
    compute "self" {
      for_each = toset([each.key]) # ERROR: Reference to each outside for_each
      type     = "read_only"
      name     = "self"
    }
    compute "none" {
      # No instance, but the block is checked all the same.
      for_each = toset([])
      type     = "read_only"
      name     = "none-${each.key}"
      size     = 3.5 # ERROR: Unsupported compute size
    }
  }

  branch "previews" {
    for_each = {}
    name     = each.key

    compute "primary" {
      size   = each.value
      colour = "blue" # ERROR: Unsupported argument
    }
  }
}
