# shop.main.analytics was renamed shop.main.reports. This block tells plan it is
# the same endpoint, so it is updated in place instead of deleted and created
# (which would change its host). Keep it until every state has been applied.
moved {
  from = "shop.main.analytics"
  to   = "shop.main.reports"
}
