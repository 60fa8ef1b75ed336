project "shop" {
  id = "dark-sun-46453911"

  branch "pr1" {
    name = "preview/pr-1"

    compute "primary" {
    }
  }

  branches "previews" {
    match   = "preview/*"
    exclude = ["preview/keep-*"]

    compute "primary" {
    }
  }
}

moved {
  from = shop.old.primary
  to   = shop.previews["preview/pr-2"].primary
}

moved {
  from = shop.old.reader
  to   = shop.previews["preview/keep-me"].primary # ERROR: Move to an undeclared compute # HINT: does not match a branch named "preview/keep-me"
}

moved {
  from = shop.old.x
  to   = shop.previews["preview/pr-1"].primary # ERROR: Move to an undeclared compute
}

moved {
  from = shop.old.y
  to   = shop.previews["preview/pr-3"].reader # ERROR: Move to an undeclared compute
}

moved {
  from = shop.older
  to   = shop.previews["preview/pr-4"]
}

moved {
  from = shop.oldest
  to   = shop.previews # ERROR: Move to an undeclared branch
}

moved {
  from = shop # ERROR: Move to another kind of address
  to   = shop.main
}
