project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
    }
  }

  branches "previews" {
    match = "preview/*"

    compute "primary" {
    }
  }
}

removed {
  from = shop.main.reports
  lifecycle {
    destroy = false
  }
}

removed {
  from = shop.main.primary # ERROR: Removed compute is still declared
}

removed {
  from = shop.previews["preview/pr-1"].primary # ERROR: Removed compute is still declared
}

removed {
  from = shop.main.reports # ERROR: Duplicate removed block
}

removed {
  from = shop.main # ERROR: Invalid address
}

removed {
  from = shop.main.old # ERROR: Removed compute is moved
}

moved {
  from = shop.main.old
  to   = shop.main.primary
}

removed { # ERROR: Missing removed address
  lifecycle {
    destroy = "yes" # ERROR: Incorrect attribute value type
  }
}
