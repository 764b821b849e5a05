step mokutil --import-hash 825cd97bf236de66c7984123dfd236434350451d0de46ee86a2395f5d01e6a1d --hash-file /data/import.hash
step mokutil --list-new
