from rum500.cli import main

raise SystemExit(main())
