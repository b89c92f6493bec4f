print("paging-demo: under construction")
