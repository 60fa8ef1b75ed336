# Everything omitted: the service's defaults, enforced.
project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
    }
  }
}
