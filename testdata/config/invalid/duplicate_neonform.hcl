neonform {
  account_tier = "paid"
}

neonform { # ERROR: Duplicate neonform block
  account_tier = "free"
}
