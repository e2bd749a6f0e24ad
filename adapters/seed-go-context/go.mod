module framecheck.local/seed-go-context

go 1.19
