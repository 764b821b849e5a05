printf '%s\n%s\n' 'sixteen-chars-16' 'sixteen-chars-16' | step mokutil --enable-validation
