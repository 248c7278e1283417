#!/usr/bin/env node
// A committed launcher, so npm links the bin at install time even before the first build.
import "../dist/cli.js";
