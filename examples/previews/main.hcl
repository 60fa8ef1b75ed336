# Previews: a preview branch per pull request, each with a small compute
# that scales to zero, said once as a rule instead of a block per branch.
#
# It runs offline against the built-in emulator (api_url = "embedded"). On
# first use the emulator creates the project, its main branch, and two
# preview branches (preview/pr-1 and preview/pr-2), as two open pull
# requests would have made them; its data stays in .neonform/.
#
#   neonform validate          check this file; no network, no API key
#   neonform plan              the rule applied to every preview branch there is now
#   neonform apply             make it so (asks first)
#
# A preview branch created later is picked up by the next plan; one deleted
# takes its compute with it, and the next apply forgets it, which is no
# change to review (plan -detailed-exitcode exits 0).

neonform {
  api_url = "embedded"
}

project "shop" {
  id = "proud-river-81736402"

  # What the service gives a compute it creates without values of its own,
  # as when CI opens a preview branch with a compute: the rule's size, so a
  # new preview starts right and its first plan restarts nothing.
  defaults {
    min_cu          = 0.25
    max_cu          = 1
    suspend_timeout = "5m"
  }

  # The production branch: named, so no rule applies to it.
  branch "main" {
    compute "primary" {
      min_cu = 0.25
      max_cu = 4

      lifecycle {
        prevent_destroy = true
      }
    }
  }

  # Every branch named preview/...: one compute each, at most 1 CU, scaling
  # to zero after 5 minutes. Addresses: shop.previews["preview/pr-1"].primary.
  branches "previews" {
    match   = "preview/*"
    exclude = ["preview/keep-*"] # long-lived demo branches keep what they have

    compute "primary" {
      min_cu          = 0.25
      max_cu          = 1
      suspend_timeout = "5m"
    }
  }
}
