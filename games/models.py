# Models arrive with the persistence layer (see DESIGN.md). The module exists
# now so Django treats "games" as an app and its migrations have a home.
