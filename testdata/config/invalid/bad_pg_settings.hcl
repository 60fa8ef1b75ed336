project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      pg_settings = { "work mem" = "64MB" } # ERROR: Invalid Postgres setting name
    }
    compute "nested" {
      type        = "read_only"
      pg_settings = { work_mem = { value = "64MB" } } # ERROR: Incorrect attribute value type
    }
    compute "null_value" {
      type        = "read_only"
      pg_settings = { work_mem = null } # ERROR: Incorrect attribute value type
    }
  }
}
