step mokutil --reset --hash-file /data/reset.hash
