locals {
  max_cu = 4
  suffix = "é-x"
}

project "shop" {
  id = "other-project-1"
}

project "tenant" {
  for_each = { acme = "acme-project", globex = "acme-project" }
  id       = each.value

  branch "main" {
    compute "primary" {
      pg_settings = { work_mem = 64 }
    }
    compute "replica" {
      for_each = toset(["a", "b"])
      type     = "read_write"
    }
  }
}

moved {
  from = "shop.main.old"
  to   = "nowhere.main.primary"
}

stray = 1

project "unicode" { id = "café-é" }
variable "late" { default = "x" }

project "two" "labels" {
  id = "two-labels"
}
