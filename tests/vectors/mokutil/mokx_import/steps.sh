step mokutil --mokx --import /data/mok.der --hash-file /data/import.hash
step mokutil --mokx --list-new
